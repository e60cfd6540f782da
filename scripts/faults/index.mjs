// The scenarios of `npm run faults`, in the order they run.
import { identityDown } from './identity-down.mjs';
import { notifierKill, notifierRestart } from './notifier-restart.mjs';
import { postgresCut } from './postgres-cut.mjs';
import { rabbitmqCut } from './rabbitmq-cut.mjs';
import { redisCut } from './redis-cut.mjs';
import { smtpRefusing } from './smtp-refusing.mjs';

export const SCENARIOS = [rabbitmqCut, notifierRestart, notifierKill, redisCut, postgresCut, identityDown, smtpRefusing];
