/**
 * One worker thread for a kind of job (report files, order PDFs), seen from the main thread: started on first use
 * with a capped heap, shared by the jobs that arrive while it runs, ended when idle (its memory is given back) and
 * started anew for the next job. A crash or an exhausted heap fails every job of that thread (their callers retry).
 * The thread answers each `{ id, job }` message with `{ id, … }`; `settle` turns that answer into the job's result or
 * throws its error.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface JobThreadOptions<Result> {
  /** What a failure of the thread is called in its error ("report worker", "order PDF thread"). */
  name: string;
  /** The error of an aborted job (default: "<name> aborted"). */
  abortedMessage?: string;
  /** The file the Worker starts (a .mjs that loads `entry` under tsx, the compiled .js otherwise). */
  bootFile: URL;
  /** The module the boot file loads (passed as workerData.entry). */
  entry: string;
  idleMs: number;
  settle: (message: { id: number } & Record<string, unknown>) => Result;
}

interface Pending<Result> {
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}
interface Running<Result> {
  worker: Worker;
  pending: Map<number, Pending<Result>>;
  idle?: NodeJS.Timeout;
}

export class JobThread<Job, Result> {
  private current: Running<Result> | null = null;
  private nextJob = 0;

  constructor(private readonly options: JobThreadOptions<Result>) {}

  /**
   * Runs `job` in the thread (started with `limits` when none runs). An abort removes the job and ends the thread,
   * and with it whatever the job held (a database connection); a job beside it fails this attempt.
   */
  run(job: Job, limits: ResourceLimits, signal?: AbortSignal): Promise<Result> {
    const aborted = () => new Error(this.options.abortedMessage ?? `${this.options.name} aborted`);
    if (signal?.aborted) return Promise.reject(aborted());
    const thread = this.thread(limits);
    const id = ++this.nextJob;
    return new Promise<Result>((resolve, reject) => {
      const abort = () => {
        thread.pending.delete(id);
        reject(aborted());
        this.retire(thread);
      };
      signal?.addEventListener('abort', abort, { once: true });
      const done = () => signal?.removeEventListener('abort', abort);
      thread.pending.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      thread.worker.postMessage({ id, job });
    });
  }

  /** Ends the thread; a job still running fails this attempt. */
  async stop(): Promise<void> {
    const thread = this.current;
    this.current = null;
    if (thread) await thread.worker.terminate();
  }

  /** Ends a thread; a job arriving meanwhile starts a new one instead of landing in the ending thread. */
  private retire(thread: Running<Result>) {
    if (this.current === thread) this.current = null;
    void thread.worker.terminate();
  }

  private thread(limits: ResourceLimits): Running<Result> {
    if (this.current) {
      clearTimeout(this.current.idle);
      return this.current;
    }
    const { bootFile, entry, idleMs, settle, name } = this.options;
    const thread: Running<Result> = {
      worker: new Worker(bootFile, { workerData: { entry }, resourceLimits: limits }),
      pending: new Map(),
    };
    // An idle thread never keeps the process alive (the caller's queue does while a job runs).
    thread.worker.unref();
    const settleAll = (error: Error) => {
      for (const p of thread.pending.values()) p.reject(error);
      thread.pending.clear();
    };
    thread.worker.on('message', (m: { id: number } & Record<string, unknown>) => {
      const p = thread.pending.get(m.id);
      thread.pending.delete(m.id);
      try {
        p?.resolve(settle(m));
      } catch (error) {
        p?.reject(error as Error);
      }
      if (!thread.pending.size) thread.idle = setTimeout(() => this.retire(thread), idleMs).unref();
    });
    thread.worker.on('error', (error) => settleAll(error));
    thread.worker.on('exit', (code) => {
      if (this.current === thread) this.current = null;
      clearTimeout(thread.idle);
      settleAll(new Error(`${name} exited with ${code}`));
    });
    this.current = thread;
    return thread;
  }
}
