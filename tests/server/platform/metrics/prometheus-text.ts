/**
 * Reads Prometheus' text format as /metrics writes it: the value of one sample, by its name and
 * labels (every label given must match; others are ignored).
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return null;
}

/** The names of the metric families in the text (its # TYPE lines). */
export function metricNames(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((match) => match[1] ?? '');
}
