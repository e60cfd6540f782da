import { createRequire } from 'node:module';

type Core = typeof import('@zxcvbn-ts/core');
type Language = typeof import('@zxcvbn-ts/language-common');
type English = typeof import('@zxcvbn-ts/language-en');
type Estimator = InstanceType<Core['ZxcvbnFactory']>;

/** Contract §9: the lowest zxcvbn score (of 0-4) a new password may have. */
export const MIN_PASSWORD_SCORE = 3;

/**
 * Built once per process and kept: at identity's start-up (warmUpPasswordStrength), or on the first
 * check of a process that skipped it (the user:create command, PASSWORD_STRENGTH_PRELOAD=false).
 * Loading the dictionaries blocks for about half a second and takes about 40 MB: done before
 * identity listens, that never stalls a request. Loaded synchronously (the packages' CommonJS
 * builds) because the check is part of a synchronous schema.
 */
let estimator: Estimator | undefined;

export function warmUpPasswordStrength(): void {
  estimator ??= loadEstimator();
  // A first estimate builds what the estimator builds lazily, so the first real one is not the slow one.
  estimator.check('Warm-up-1');
}

function loadEstimator(): Estimator {
  const load = createRequire(import.meta.url);
  const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as Core;
  const common = load('@zxcvbn-ts/language-common') as Language;
  const english = load('@zxcvbn-ts/language-en') as English;
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
}

/**
 * Contract §9: whether zxcvbn, with its common and English dictionaries, scores the password at
 * least MIN_PASSWORD_SCORE. It sees through what the composition rule cannot: dictionary words and
 * names with l33t substitutions, appended digits, years and a symbol (`Password1!`, `Welcome2024!`).
 */
export function isStrongEnough(password: string): boolean {
  estimator ??= loadEstimator();
  return estimator.check(password).score >= MIN_PASSWORD_SCORE;
}
