import { Registry } from 'prom-client';
import { registerScrapedGauges, type GaugeReading } from '../src/index.js';

function gaugesReading(read: () => Promise<Record<'backlog' | 'depth', GaugeReading>>, timeoutMs = 100) {
  const registry = new Registry();
  registerScrapedGauges({
    registry,
    source: 'test source',
    timeoutMs,
    read,
    gauges: { backlog: { help: 'rows waiting' }, depth: { help: 'messages in a queue', labelNames: ['queue'] } },
  });
  return registry;
}

describe('registerScrapedGauges', () => {
  it('reads the source once per scrape and reports its values', async () => {
    let reads = 0;
    const registry = gaugesReading(async () => {
      reads += 1;
      return {
        backlog: 4,
        depth: [
          { labels: { queue: 'a' }, value: 2 },
          { labels: { queue: 'b' }, value: 0 },
        ],
      };
    });
    const text = await registry.metrics();
    expect(reads).toBe(1);
    expect(text).toContain('backlog 4');
    expect(text).toContain('depth{queue="a"} 2');
    expect(text).toContain('depth{queue="b"} 0');
  });

  it('answers NaN within the timeout when the source does not answer, and NaN when it fails', async () => {
    let mode: 'ok' | 'slow' | 'fail' = 'ok';
    let release = () => {};
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const registry = gaugesReading(async () => {
      // A source that answers only when the test lets it: a scrape that answers at all did not wait for it.
      if (mode === 'slow') await stalled;
      if (mode === 'fail') throw new Error('database down');
      return { backlog: 1, depth: [{ labels: { queue: 'a' }, value: 5 }] };
    });
    await registry.metrics();

    mode = 'slow';
    const slow = await registry.metrics();
    release();
    expect(slow).toContain('backlog Nan');
    expect(slow).toContain('depth{queue="a"} Nan');

    mode = 'fail';
    expect(await registry.metrics()).toContain('backlog Nan');
    mode = 'ok';
    expect(await registry.metrics()).toContain('backlog 1');
  });

  it('shows no series of a labelled gauge until a read has named its label sets', async () => {
    const registry = gaugesReading(async () => {
      throw new Error('broker down');
    });
    const text = await registry.metrics();
    expect(text).toContain('backlog Nan');
    expect(text).not.toMatch(/^depth/m);
  });
});
