import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FLUSH_TIMEOUT_MS, installGlobalErrorHandlers } from '../../src-main/global-errors';
import { consoleLog } from '../../src-main/kiosk-log';
import { FakeApp, FakeTimers } from './helpers/fake-electron';

/** A console stand-in that keeps what the kiosk log writes. */
function capturingConsole() {
  const lines: unknown[][] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args);
  };
  return { target: { info: keep, warn: keep, error: keep }, lines };
}

function setUp(flush?: () => Promise<unknown>) {
  const processEvents = new EventEmitter();
  const app = new FakeApp();
  const output = capturingConsole();
  const timers = new FakeTimers();
  const handlers = installGlobalErrorHandlers({
    process: processEvents,
    app,
    log: consoleLog(output.target),
    flush,
    setTimeout: (callback, ms) => timers.setTimeout(callback, ms),
  });
  return { processEvents, app, output, timers, handlers };
}

describe('installGlobalErrorHandlers', () => {
  it.each(['uncaughtException', 'unhandledRejection'])('logs %s with the [kiosk] tag, then relaunches and exits 0', (event) => {
    const { processEvents, app, output } = setUp();
    const error = new Error('main process bug');
    processEvents.emit(event, error);
    expect(output.lines).toEqual([[`[kiosk] [global-errors] ${event}, relaunching`, error]]);
    expect(app.lifecycle).toEqual(['relaunch', 'exit(0)']);
  });

  it('relaunches once, however many errors follow', () => {
    const { processEvents, app, output, handlers } = setUp();
    processEvents.emit('uncaughtException', new Error('first'));
    processEvents.emit('unhandledRejection', 'second');
    processEvents.emit('uncaughtException', new Error('third'));
    expect(app.relaunchCalls).toBe(1);
    expect(handlers.relaunching()).toBe(true);
    expect(output.lines.map((line) => line[0])).toEqual([
      '[kiosk] [global-errors] uncaughtException, relaunching',
      '[kiosk] [global-errors] unhandledRejection while relaunching',
      '[kiosk] [global-errors] uncaughtException while relaunching',
    ]);
  });

  it('sends queued error reports before relaunching', async () => {
    let release: () => void = () => undefined;
    const flushed = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { processEvents, app } = setUp(() => flushed);
    processEvents.emit('uncaughtException', new Error('bug'));
    expect(app.lifecycle).toEqual([]);
    release();
    await flushed;
    await Promise.resolve();
    expect(app.lifecycle).toEqual(['relaunch', 'exit(0)']);
  });

  it(`relaunches after ${FLUSH_TIMEOUT_MS} ms when the reports cannot be sent, and only once`, async () => {
    let release: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { processEvents, app, timers } = setUp(() => late);
    processEvents.emit('uncaughtException', new Error('bug'));
    timers.advance(FLUSH_TIMEOUT_MS - 1);
    expect(app.lifecycle).toEqual([]);
    timers.advance(1);
    expect(app.lifecycle).toEqual(['relaunch', 'exit(0)']);
    release();
    await late;
    await Promise.resolve();
    expect(app.lifecycle).toEqual(['relaunch', 'exit(0)']);
  });

  it('relaunches even when flushing itself fails', async () => {
    const { processEvents, app } = setUp(() => Promise.reject(new Error('offline')));
    processEvents.emit('unhandledRejection', new Error('bug'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.lifecycle).toEqual(['relaunch', 'exit(0)']);
  });
});
