/** One scrape of a Prometheus endpoint: the value of a series, spelled as it appears (`name{label="value"}`). */
export type MetricsScrape = (series: string) => number | undefined;

export async function scrapeMetrics(url: string): Promise<MetricsScrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const values = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return (series) => values.get(series);
}
