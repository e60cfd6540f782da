/**
 * argon2's least cost (1 MiB, one pass: 0.5 ms a hash against 22 ms at OWASP's), which identity
 * takes outside production only (services/identity/src/passwords/passwords.config.ts). A test run
 * hashes or verifies some 1,700 passwords; what the tests check of them (the same answer and work
 * for an unknown account, the fair queue, the cost production hashes at) does not depend on the
 * cost, and the suites that load the hash queue ask for OWASP's.
 */
export const TEST_PASSWORD_HASH_COST = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1' } as const;

/**
 * The strength estimator built on the first new password checked rather than at start-up
 * (services/identity/src/passwords/password-strength.ts), in identity's test kits: most of their
 * fifty-odd apps never check a new password, and a build costs half a second of CPU on a quiet
 * 2-core machine and several on a loaded one. Not in the systems of the harness: there the first
 * check would hold identity that long behind the gateway's upstream timeout (a 503 once, in the fuzz
 * suite's first invitation, on a loaded machine).
 */
export const TEST_PASSWORD_STRENGTH_PRELOAD = { PASSWORD_STRENGTH_PRELOAD: 'false' } as const;
