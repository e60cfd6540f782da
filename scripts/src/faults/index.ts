// The scenarios of `npm run faults`, in the order they run.
import { identityDown } from './identity-down.js';
import { notifierKill, notifierRestart } from './notifier-restart.js';
import { postgresCut } from './postgres-cut.js';
import { rabbitmqCut } from './rabbitmq-cut.js';
import { redisCut } from './redis-cut.js';
import { smtpRefusing } from './smtp-refusing.js';

import type { Scenario } from './scenario.js';

export const SCENARIOS: Scenario[] = [rabbitmqCut, notifierRestart, notifierKill, redisCut, postgresCut, identityDown, smtpRefusing];
