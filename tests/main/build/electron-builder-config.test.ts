import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// electron-builder's own loader and schema validation (the code `electron-builder` runs before
// packaging), so the test reads electron-builder.yml exactly as the packager will.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));

async function loadBuilderConfig() {
  const config = await getConfig(projectDir, 'electron-builder.yml', null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    await expect(loadBuilderConfig()).resolves.toBeTruthy();
  });

  it('flips every fuse to the hardened value', async () => {
    const config = await loadBuilderConfig();
    expect(config.electronFuses).toStrictEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('packages only the bundled kiosk and its local pages, never node_modules or source maps', async () => {
    const config = await loadBuilderConfig();
    // The loader normalises the list into one file set.
    expect(config.files).toEqual([
      {
        filter: [
          'package.json',
          'out/main/**',
          'out/preload/**',
          'resources/kiosk/offline.html',
          'resources/kiosk/enrollment.html',
          '!**/*.map',
          '!node_modules/**',
        ],
      },
    ]);
  });

  it('builds AppImage and deb for Linux and an NSIS installer for Windows', async () => {
    const config = await loadBuilderConfig();
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('Patient Portal Kiosk');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual(['nsis']);
  });
});
