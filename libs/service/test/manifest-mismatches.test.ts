import { Controller, Module, Post } from '@nestjs/common';
import type { INestApplication, Type } from '@nestjs/common';
import { Authenticator } from '@school/auth';
import { RequirePermissions } from '@school/auth/nest';
import { FEEDBACK_ROUTES, PERMISSIONS } from '@school/contracts';
import { createLogger } from '@school/telemetry';
import { createServiceApp } from '../src/bootstrap.js';
import { HealthModule } from '../src/health.module.js';
import { Route } from '../src/route/route.decorator.js';
import { manifestMismatches } from '../src/testing/index.js';

@Controller()
class FeedbackController {
  @Route(FEEDBACK_ROUTES.submit)
  submit() {}

  @Route(FEEDBACK_ROUTES.submitAsGuest)
  submitAsGuest() {}
}

@Controller()
class OnlySubmit {
  @Route(FEEDBACK_ROUTES.submit)
  submit() {}
}

/** Its controller-wide permission adds to what the entry of `submit` asks. */
@Controller()
@RequirePermissions(PERMISSIONS.Feedback_READ)
class Drifted {
  @Route(FEEDBACK_ROUTES.submit)
  submitGuardedMore() {}

  @Post('api/mobile/feedback/public')
  submitAsGuest() {}

  @Post('api/mobile/feedback/extra')
  extra() {}
}

async function appOf(...controllers: Type[]): Promise<INestApplication> {
  // The guards are read, never run (no request is served): their authenticator is not needed.
  @Module({ imports: [HealthModule], controllers, providers: [{ provide: Authenticator, useValue: {} }] })
  class AppModule {}
  return createServiceApp(AppModule, { logger: createLogger({ service: 'manifest-test', level: 'silent' }) });
}

describe('manifestMismatches: the handlers an app serves against its route manifests', () => {
  const apps: INestApplication[] = [];
  const start = async (...controllers: Type[]) => {
    const app = await appOf(...controllers);
    apps.push(app);
    return app;
  };

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('finds nothing when each entry is served by one handler, declared and guarded by it', async () => {
    expect(manifestMismatches(await start(FeedbackController), [FEEDBACK_ROUTES])).toEqual([]);
  });

  it('names an entry no handler serves', async () => {
    expect(manifestMismatches(await start(OnlySubmit), [FEEDBACK_ROUTES])).toEqual(['POST /api/mobile/feedback/public: served by 0 handlers']);
  });

  it('names an entry served twice, a handler guarded otherwise, one without @Route() and one outside the manifest', async () => {
    expect(manifestMismatches(await start(OnlySubmit, Drifted), [FEEDBACK_ROUTES])).toEqual([
      'POST /api/mobile/feedback: served by 2 handlers',
      expect.stringMatching(/^POST \/api\/mobile\/feedback \(Drifted\.submitGuardedMore\): guarded .*"permissions":\["Feedback_READ"\].*, its entry says .*"permissions":\[\]/),
      'POST /api/mobile/feedback/public (Drifted.submitAsGuest): declared without @Route()',
      'POST /api/mobile/feedback/extra (Drifted.extra): in no manifest',
    ]);
  });
});
