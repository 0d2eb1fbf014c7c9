/**
 * The render pool's queue (piscina's `taskQueue`): two lanes, first in first out within each, and
 * a task marked `AHEAD` taken before every task of the other lane.
 *
 * A set posts its ten slides at once, so a brand picture asked for meanwhile (the store preview,
 * asked for as soon as the first three slides are drawn) queued behind the last slide: both
 * threads drew slides, then one drew the preview (~90 ms on the bench's set) while the other sat
 * idle, and the set ended that much later. Taken ahead, it runs between two slides and the two
 * threads end together.
 */
import { Piscina, type TaskQueue } from 'piscina';

type Task = Parameters<TaskQueue['push']>[0];

/** Queue options of a task that goes before the waiting slides. */
export const AHEAD = { ahead: true } as const;

/** `task` (posted to piscina) marked to go first: the symbol's property is not cloned to the thread. */
export function ahead<T extends object>(task: T): T {
  return Object.assign(task, { [Piscina.queueOptionsSymbol]: AHEAD });
}

const isAhead = (task: Task): boolean => (task[Piscina.queueOptionsSymbol as keyof Task] as { ahead?: boolean } | null)?.ahead === true;

export class LaneQueue implements TaskQueue {
  readonly #first: Task[] = [];
  readonly #rest: Task[] = [];

  get size(): number {
    return this.#first.length + this.#rest.length;
  }

  push(task: Task): void {
    (isAhead(task) ? this.#first : this.#rest).push(task);
  }

  /** A task piscina took but could not hand to a thread: back at the head of its lane. */
  unshift(task: Task): void {
    (isAhead(task) ? this.#first : this.#rest).unshift(task);
  }

  shift(): Task | null {
    return this.#first.shift() ?? this.#rest.shift() ?? null;
  }

  remove(task: Task): void {
    for (const lane of [this.#first, this.#rest]) {
      const at = lane.indexOf(task);
      if (at >= 0) {
        lane.splice(at, 1);
        return;
      }
    }
  }
}
