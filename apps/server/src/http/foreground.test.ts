import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Foreground, registerForeground } from './foreground';

describe('the console first', () => {
  it('nothing waits while no request is in flight', () => {
    expect(new Foreground().quiet()).toBeUndefined();
  });

  it('background work waits until the last request in flight is answered', async () => {
    const foreground = new Foreground();
    const first = {};
    const second = {};
    foreground.enter(first);
    foreground.enter(second);
    const quiet = foreground.quiet(10_000);
    expect(quiet).toBeInstanceOf(Promise);
    expect(foreground.quiet(10_000)).toBe(quiet);
    let resumed = false;
    void quiet?.then(() => {
      resumed = true;
    });
    foreground.leave(first);
    await Promise.resolve();
    expect(resumed).toBe(false);
    foreground.leave(second);
    await quiet;
    expect(resumed).toBe(true);
    expect(foreground.quiet()).toBeUndefined();
  });

  it('never waits longer than asked, so background work is not starved', async () => {
    const foreground = new Foreground();
    foreground.enter({});
    const started = performance.now();
    await foreground.quiet(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('a request older than a second (a long download) no longer holds anything', () => {
    const foreground = new Foreground();
    foreground.enter({}, performance.now() - 1_500);
    expect(foreground.busy).toBe(false);
    expect(foreground.quiet()).toBeUndefined();
  });

  it('leaving twice, or leaving a request never counted, changes nothing', () => {
    const foreground = new Foreground();
    const kept = {};
    foreground.enter(kept);
    foreground.leave({});
    expect(foreground.busy).toBe(true);
    foreground.leave(kept);
    foreground.leave(kept);
    expect(foreground.busy).toBe(false);
  });

  it('counts API requests from their start to their answer, errors included, and nothing else', async () => {
    const app = Fastify();
    const foreground = new Foreground();
    registerForeground(app, foreground);
    const seen: boolean[] = [];
    app.get('/api/thing', async () => {
      seen.push(foreground.busy);
      return { ok: true };
    });
    app.get('/api/broken', async () => {
      seen.push(foreground.busy);
      throw new Error('broken');
    });
    app.get('/page', async () => {
      seen.push(foreground.busy);
      return 'page';
    });
    await app.inject('/api/thing');
    expect(foreground.busy).toBe(false);
    await app.inject('/api/broken');
    expect(foreground.busy).toBe(false);
    await app.inject('/page');
    expect(seen).toEqual([true, true, false]);
    await app.close();
  });
});
