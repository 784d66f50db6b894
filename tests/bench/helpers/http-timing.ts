// What the HTTP benchmarks share: a timed loop with warm-up rounds, and a GET that must answer 200.

/** Runs `run` warmUp + samples times and answers the milliseconds of the rounds after the warm-up. */
export async function timed(warmUp: number, samples: number, run: (index: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < warmUp + samples; index++) {
    const started = performance.now();
    await run(index);
    if (index >= warmUp) times.push(performance.now() - started);
  }
  return times;
}

/** GETs `url` and answers its JSON; anything but a 200 fails the benchmark with the answer's text. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
