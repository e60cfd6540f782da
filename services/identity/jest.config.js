import { jestConfig } from '../../jest.preset.js';

// The test kit's apps copy a template database holding identity's and the outbox's migrations.
export default jestConfig(import.meta.dirname, { templateDatabases: [['outbox']] });
