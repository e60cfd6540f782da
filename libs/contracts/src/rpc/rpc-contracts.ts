import { FEEDBACK_SENT_BY_ACCOUNT, FILES_OF_ACCOUNT } from './account-data-contracts.js';
import { GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE } from './address-contracts.js';

/** Every contract of the product (test clean-up deletes their queues). */
export const RPC_CONTRACTS = Object.freeze([GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, FEEDBACK_SENT_BY_ACCOUNT, FILES_OF_ACCOUNT]);
