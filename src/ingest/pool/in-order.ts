/**
 * Runs `work` over `items`, up to `concurrency` calls at once, and yields the results in the order of the
 * items. Never starts an item more than `ahead` places past the one the consumer is at, so a slow item or a
 * slow consumer holds at most `ahead` results in memory. `work` should turn failures into values: a
 * rejection is thrown to the consumer when its item's turn comes.
 */
export async function* inOrder<T, R>(options: {
  items: readonly T[];
  work: (item: T) => Promise<R>;
  concurrency: number;
  ahead: number;
}): AsyncGenerator<[T, R]> {
  const { items, work } = options;
  const concurrency = Math.max(1, options.concurrency);
  const ahead = Math.max(concurrency, options.ahead);
  const started = new Map<number, Promise<R>>();
  let running = 0;
  let next = 0;
  let head = 0;
  const fill = () => {
    while (next < items.length && running < concurrency && next < head + ahead) {
      running++;
      const result = work(items[next] as T).finally(() => {
        running--;
        fill();
      });
      result.catch(() => undefined); // observed when its turn comes
      started.set(next++, result);
    }
  };
  for (; head < items.length; head++) {
    fill();
    const result = await (started.get(head) as Promise<R>);
    started.delete(head);
    yield [items[head] as T, result];
  }
}
