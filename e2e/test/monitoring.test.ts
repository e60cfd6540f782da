import { spawnSync } from 'node:child_process';
import { SERVICE_NAMES } from '@school/config';
import { parse } from 'yaml';
import { readRepoFile, root } from './support/deployment.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';

/** The alert rules (deploy/helm/school-commerce/files/alerts.yaml) and the Grafana dashboard (deploy/monitoring/grafana-dashboard.json). */
const RULES = 'deploy/helm/school-commerce/files/alerts.yaml';
const RULE_TESTS = 'deploy/monitoring/alerts.test.yaml';
const DASHBOARD = 'deploy/monitoring/grafana-dashboard.json';
/** Series that Prometheus makes (`up`, per scrape target) or kube-state-metrics exports: no process serves them. */
const NOT_OURS = /^(up|kube_[a-z_]+)$/;

function promtool(...args: string[]) {
  const result = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
  if (result.error) throw new Error(`promtool: ${result.error.message}; install it with apt-get install -y prometheus (the Debian package has promtool; .ci/run does this)`);
  return { status: result.status, output: result.stdout + result.stderr };
}

/** The metric names a PromQL expression reads: identifiers other than functions, keywords, label names and durations. */
function seriesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = bare.match(/(?<![\w.$:])[a-zA-Z_:][\w:]*(?![\w:]|\s*\()/g) ?? [];
  return [...new Set(names.filter((name) => !['and', 'or', 'unless', 'offset', 'bool'].includes(name)))];
}

interface Dashboard {
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
}
const dashboard = JSON.parse(readRepoFile(DASHBOARD)) as Dashboard;
const rules = (parse(readRepoFile(RULES)) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap((group) => group.rules);

describe('alert rules', () => {
  it('pass promtool check rules', () => {
    expect(promtool('check', 'rules', RULES)).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${rules.length} rules found`) });
  });

  it('pass their unit tests (promtool test rules): each alert fires on what should wake someone, not on normal series', () => {
    expect(promtool('test', 'rules', RULE_TESTS)).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('cover outbox age, parked rows, dead letters, final job failures, 5xx share, throttle jumps and readiness', () => {
    const read = rules.flatMap((rule) => seriesOf(rule.expr));
    for (const series of [
      'outbox_oldest_pending_age_seconds',
      'outbox_parked_events',
      'amqp_dead_letter_messages',
      'notification_job_failures_total',
      'http_request_duration_seconds_count',
      'gateway_throttle_rejections_total',
      'kube_deployment_status_replicas_unavailable',
      'up',
    ]) {
      expect({ series, alerted: read.includes(series) }).toEqual({ series, alerted: true });
    }
    const tested = parse(readRepoFile(RULE_TESTS)) as { tests: { alert_rule_test: { alertname: string }[] }[] };
    const alertsTested = new Set(tested.tests.flatMap((test) => test.alert_rule_test.map((check) => check.alertname)));
    expect(rules.map((rule) => rule.alert).filter((alert) => !alertsTested.has(alert))).toEqual([]);
  });

  it('read series by their real names (the extraction this file relies on)', () => {
    expect(seriesOf('sum by (job) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m])) / sum(rate(x_total[1h] offset 5m)) > 0.05 and up == 0')).toEqual([
      'http_request_duration_seconds_count',
      'x_total',
      'up',
    ]);
  });
});

describe(`${DASHBOARD} against /metrics of a running system`, () => {
  let system: SystemView;
  let served: Set<string>;

  beforeAll(async () => {
    system = await sharedSystem();
    const urls = [system.gatewayMetricsUrl, ...SERVICE_NAMES.map((name) => `${system.serviceUrl(name)}/metrics`)];
    const texts = await Promise.all(urls.map(async (url) => (await fetch(url)).text()));
    served = new Set(
      texts
        .flatMap((text) => text.split('\n'))
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => /^[a-zA-Z_:][\w:]*/.exec(line)?.[0] ?? ''),
    );
  }, 120_000);

  it('has a query on every graph panel, each reading series some process serves (or Prometheus itself: up)', () => {
    const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(graphs.length).toBeGreaterThan(8);
    for (const panel of graphs) {
      expect({ panel: panel.title, queries: (panel.targets ?? []).length > 0 }).toEqual({ panel: panel.title, queries: true });
      for (const { expr } of panel.targets ?? []) {
        const series = seriesOf(expr);
        expect({ panel: panel.title, expr, missing: series.length === 0 ? ['(no series)'] : series.filter((name) => !served.has(name) && !NOT_OURS.test(name)) }).toEqual({
          panel: panel.title,
          expr,
          missing: [],
        });
      }
    }
  });

  it('the alert rules read series some process serves, too', () => {
    for (const rule of rules)
      expect({ alert: rule.alert, missing: seriesOf(rule.expr).filter((name) => !served.has(name) && !NOT_OURS.test(name)) }).toEqual({ alert: rule.alert, missing: [] });
  });

  it('shows every series the alerts read, so a firing alert has its graph', () => {
    const shown = new Set(dashboard.panels.flatMap((panel) => panel.targets ?? []).flatMap((target) => seriesOf(target.expr)));
    expect([...new Set(rules.flatMap((rule) => seriesOf(rule.expr)))].filter((name) => !shown.has(name) && !name.startsWith('kube_'))).toEqual([]);
  });
});
