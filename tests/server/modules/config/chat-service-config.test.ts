import { describe, expect, it } from 'vitest';
import { ChatServiceConfigSchema, IntegrationConfigSchema } from '@contract/api/config';
import { chatServiceOriginOf } from '../../../../src-server/modules/config/service';

// The provider's chat service settings (docs/rules/chat.md#the-providers-chat-service): an https
// script address, an environment and a deployment id; its origin is what the CSP allows.

const GOOD = { scriptUrl: 'https://apps.chat.example/messenger/bootstrap.min.js', environment: 'prod-apse2', deploymentId: 'abc-123' };

describe('chat service settings', () => {
  it('accepts an https script with an environment and a deployment id, and null for none', () => {
    expect(ChatServiceConfigSchema.parse(GOOD)).toEqual(GOOD);
    expect(IntegrationConfigSchema.parse({ errorReportingDsn: null, errorReportingEnvironment: 'x' }).chatService).toBeNull();
  });

  it.each([
    ['http', { ...GOOD, scriptUrl: 'http://apps.chat.example/bootstrap.js' }, 'scriptUrl must be an https address'],
    ['javascript', { ...GOOD, scriptUrl: 'javascript:alert(1)' }, 'scriptUrl must be an https address'],
    ['data', { ...GOOD, scriptUrl: 'data:text/javascript,alert(1)' }, 'scriptUrl must be an https address'],
    ['a space in the environment', { ...GOOD, environment: 'prod apse2' }, 'environment: 1 to 60'],
    ['a quote in the deployment id', { ...GOOD, deploymentId: 'abc"onload=' }, 'deploymentId: 1 to 100'],
    ['an empty deployment id', { ...GOOD, deploymentId: '' }, 'deploymentId: 1 to 100'],
    ['an extra setting', { ...GOOD, debug: true }, 'Unrecognized key'],
  ])('refuses %s', (_name, value, message) => {
    const result = ChatServiceConfigSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join('; ')).toContain(message);
  });

  it('gives the CSP the https origin only', () => {
    expect(chatServiceOriginOf(GOOD.scriptUrl)).toBe('https://apps.chat.example');
    expect(chatServiceOriginOf('https://apps.chat.example:8443/x.js')).toBe('https://apps.chat.example:8443');
    expect(chatServiceOriginOf('http://apps.chat.example/x.js')).toBeNull();
    expect(chatServiceOriginOf('not a url')).toBeNull();
    expect(chatServiceOriginOf(null)).toBeNull();
  });
});
