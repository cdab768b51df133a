/**
 * What any receipt could reach on weighted paths if the whole budget named paths, best weight per
 * token first: the capacity bound of a window, whatever the selection policy. `cost` is what one
 * path costs as the receipt would write it.
 */
export function pathCapacity(
  paths: ReadonlyMap<string, number>,
  cost: (path: string) => number,
  budget: number,
): number {
  const items = [...paths]
    .map(([path, weight]) => ({ weight, cost: cost(path) }))
    .sort((a, b) => b.weight / b.cost - a.weight / a.cost);
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let left = budget;
  let reached = 0;
  for (const item of items) {
    if (item.cost > left) continue;
    left -= item.cost;
    reached += item.weight;
  }
  return total === 0 ? 0 : reached / total;
}
