import { startTelemetry } from '@school/telemetry';

// Imported first by main.ts so HTTP modules are instrumented before they load.
startTelemetry('gateway');
