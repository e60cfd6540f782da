import { jestConfig } from '../../jest.preset.js';

// Its suites copy these template databases: its own migrations, and with the outbox's.
export default jestConfig(import.meta.dirname, { templateDatabases: [[], ['outbox']] });
