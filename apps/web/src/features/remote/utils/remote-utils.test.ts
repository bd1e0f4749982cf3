import { describe, expect, it } from 'vitest';
import { targetOf } from '../../connect/terminal/target';
import { connectUrl, terminalUrl } from '../../connect/terminal/terminal-socket';
import { clientCommands } from '../components/PortForwards';
import { castLength, parseCast } from './asciicast';
import { formatBytes, formatDuration } from './format';

describe('remote access helpers', () => {
  it('reads the console target from the address: an entry before a device, nothing for junk', () => {
    expect(targetOf('?device_id=12')).toEqual({ device_id: 12 });
    expect(targetOf('?device=12')).toEqual({ device_id: 12 });
    expect(targetOf('?entry_id=3&device_id=12')).toEqual({ entry_id: 3 });
    expect(targetOf('?device_id=abc')).toBeUndefined();
    expect(targetOf('?device_id=-4')).toBeUndefined();
    expect(targetOf('')).toBeUndefined();
    // A share link's key wins: the launcher opens what the key opens, nothing else.
    expect(targetOf('?key=abc_-DEF&device_id=12')).toEqual({ key: 'abc_-DEF' });
  });

  it('opens the terminal socket on the console’s own origin, wss: under https', () => {
    expect(terminalUrl({ device_id: 7 }, { protocol: 'https:', host: 'console.example.com' })).toBe(
      'wss://console.example.com/connect/terminal?device_id=7',
    );
    expect(terminalUrl({ entry_id: 2 }, { protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/connect/terminal?entry_id=2',
    );
    expect(terminalUrl({ device_id: 7 }, { protocol: 'http:', host: 'h' }, 'telnet')).toBe(
      'ws://h/connect/terminal?device_id=7&protocol=telnet',
    );
    expect(connectUrl('/connect/desktop', { key: 'a b&c' }, { protocol: 'http:', host: 'h' }, 'vnc')).toBe(
      'ws://h/connect/desktop?key=a%20b%26c',
    );
  });

  it('names the client commands of a forward by protocol', () => {
    expect(clientCommands({ protocol: 'ssh', host: 'fg.example', port: 41234 })).toEqual([
      'ssh -p 41234 admin@fg.example',
      'sftp -P 41234 admin@fg.example',
    ]);
    expect(clientCommands({ protocol: 'https', host: 'fg.example', port: 40000 })).toEqual([
      'https://fg.example:40000/',
    ]);
    expect(clientCommands({ protocol: 'vnc', host: 'fg.example', port: 40001 })).toEqual([
      'fg.example:40001',
    ]);
  });

  it('writes bytes and durations as people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(3174)).toBe('3.1 KB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(192_000)).toBe('3 min 12 s');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
    expect(formatDuration(-5)).toBe('0 s');
  });

  it('reads an asciicast v2 recording: its window, output and resizes in order', () => {
    const cast = parseCast(
      [
        JSON.stringify({ version: 2, width: 100, height: 30, timestamp: 1 }),
        JSON.stringify([0.1, 'o', 'root@rut:~# ']),
        JSON.stringify([0.5, 'i', 'typed']),
        JSON.stringify([1.25, 'r', '120x40']),
        '',
      ].join('\n'),
    );
    expect(cast).toEqual({
      width: 100,
      height: 30,
      events: [
        { at: 0.1, kind: 'o', data: 'root@rut:~# ' },
        { at: 1.25, kind: 'r', data: '120x40' },
      ],
    });
    expect(castLength(cast)).toBe(1.25);
    expect(() => parseCast('{"version":1}')).toThrow('Not an asciicast v2 recording');
  });
});
