// Jest global setup of a project whose integration suites copy template databases
// (`templateDatabases` of jestConfig): migrates each template once, before any suite starts, so no
// suite waits for another's build. On a Node without module hooks the first suite builds it instead.
import { registerTypeScriptHooks } from './typescript-hooks.js';

const SHARED_MIGRATIONS = {
  outbox: async () => (await import('../../libs/messaging/src/outbox/outbox-schema.ts')).OUTBOX_MIGRATIONS,
};

export default async function buildTemplates(_globalConfig, projectConfig) {
  const templates = projectConfig.testEnvironmentOptions?.templateDatabases ?? [];
  // The unit and medium lanes copy no template (medium suites replay the migrations into a schema of their own).
  if (templates.length === 0 || ['unit', 'medium'].includes(process.env.JEST_LANE ?? '') || !registerTypeScriptHooks()) return;
  const { ensureTemplate, serviceTemplate } = await import('../../libs/testing/src/template-database.ts');
  await Promise.all(
    templates.map(async (shared) => {
      const urls = await Promise.all(shared.map((name) => SHARED_MIGRATIONS[name]()));
      await ensureTemplate(serviceTemplate(projectConfig.rootDir, urls));
    }),
  );
}
