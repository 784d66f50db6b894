import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (relative: string) => readFileSync(path.join(root, relative), 'utf8');
const builderYml = read('electron-builder.yml');
const builder = {
  productName: /^productName: (.+)$/m.exec(builderYml)?.[1],
  linux: { executableName: /^ {2}executableName: (.+)$/m.exec(builderYml)?.[1] },
};

/** `Key=value` lines of one [Section] of a systemd unit. */
function unitSection(text: string, section: string): Map<string, string> {
  const body = text.split(/^\[/m).find((part) => part.startsWith(`${section}]`)) ?? '';
  const entries = body
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return new Map(entries);
}

describe('resources/kiosk supervisor samples', () => {
  it('reads the names from electron-builder.yml', () => {
    expect(builder).toEqual({ productName: 'Patient Portal Kiosk', linux: { executableName: 'patient-portal-kiosk' } });
  });

  it('the systemd unit restarts the installed kiosk always', () => {
    const service = unitSection(read('resources/kiosk/systemd/patient-portal-kiosk.service'), 'Service');
    expect(service.get('Restart')).toBe('always');
    expect(Number(service.get('RestartSec'))).toBeGreaterThan(0);
    // electron-builder's deb installs to /opt/<productName>/<executableName>.
    expect(service.get('ExecStart')).toBe(`"/opt/${builder.productName ?? ''}/${builder.linux.executableName ?? ''}"`);
  });

  it('the Windows task starts the installed kiosk again when it stopped, never a second copy', () => {
    const xml = read('resources/kiosk/windows/patient-portal-kiosk-task.xml');
    expect(xml).toContain(`<Command>"C:\\Program Files\\${builder.productName ?? ''}\\${builder.productName ?? ''}.exe"</Command>`);
    expect(xml).toMatch(/<MultipleInstancesPolicy>IgnoreNew<\/MultipleInstancesPolicy>/);
    expect(xml).toMatch(/<Repetition>\s*<Interval>PT5M<\/Interval>/);
    expect(xml).toMatch(/<RestartOnFailure>/);
    expect(xml).toMatch(/<ExecutionTimeLimit>PT0S<\/ExecutionTimeLimit>/);
  });

  it('the README points IT at both samples', () => {
    const readme = read('resources/kiosk/README.md');
    expect(readme).toContain('systemd/patient-portal-kiosk.service');
    expect(readme).toContain('windows/patient-portal-kiosk-task.xml');
  });
});
