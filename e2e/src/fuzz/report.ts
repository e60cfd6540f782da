import type { FuzzReport } from './fuzzer.js';

/** The run in lines a person reads: per operation the answers by status, then every failure in full. */
export function formatReport(report: FuzzReport, replay: string): string {
  const lines = [`fuzz: seed ${report.seed}, ${report.requests} requests over ${report.operations} operations in ${(report.elapsedMs / 1000).toFixed(1)} s`, ''];
  const width = Math.max(...[...report.statuses.keys()].map((id) => id.length));
  for (const [operation, statuses] of [...report.statuses].sort(([a], [b]) => a.localeCompare(b))) {
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const spread = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status || 'none'}x${count}`)
      .join(' ');
    lines.push(`${operation.padEnd(width)}  ${String(total).padStart(4)}  ${spread}`);
  }
  lines.push('', `failures: ${report.failures.length}`);
  for (const failure of report.failures) {
    lines.push(
      '',
      `#${failure.index} ${failure.operation} (${failure.plan.kind}, ${failure.plan.principal}, ${JSON.stringify(failure.plan.mutation).slice(0, 200)})`,
      `  sent: ${failure.request.method} ${failure.request.target}`,
      `  headers: ${JSON.stringify(failure.request.headers)}`,
      ...(failure.request.body ? [`  body: ${JSON.stringify(failure.request.body)}`] : []),
      `  answer: ${failure.status}`,
      ...failure.findings.map((finding) => `  - ${finding.problem}${finding.excerpt ? `: ${JSON.stringify(finding.excerpt)}` : ''}`),
    );
  }
  lines.push('', `replay: ${replay}`);
  return lines.join('\n');
}
