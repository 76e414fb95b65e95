/** One turn of a call: its answer, and when it lets go of the app (a cancelled read at once;
 *  anything else once it has stopped). */
export interface Turn<T> {
  answer: T
  released: Promise<unknown>
}

/** Calls that arrive together run one at a time, in the order they arrived: they act on one app,
 *  and an agent that sends tap then snap means the snap to see the tap. */
export class CallQueue {
  private last: Promise<unknown> = Promise.resolve()

  run<T>(work: () => Promise<Turn<T>>): Promise<T> {
    const turn = this.last.then(work)
    this.last = turn.then(
      ({released}) => released.catch(() => undefined),
      () => undefined,
    )
    return turn.then(({answer}) => answer)
  }
}
