import { actionParamsSchemas } from '@fleetgate/shared/devices/actions';
import type { CommandMessage, ReplyMessage } from '@fleetgate/shared/devices/messages';
import type { DeviceAgent } from './agent';
import { runShell } from './shell';

const file = (name: string, contentType: string, text: string) => ({
  name,
  content_type: contentType,
  data: Buffer.from(text).toString('base64'),
});

/**
 * What the simulated device does with each action. Parameters are checked
 * against the shared schema: a device refuses what it does not understand.
 */
export function executeCommand(
  agent: DeviceAgent,
  command: CommandMessage,
  options: { fail: boolean },
): ReplyMessage {
  const id = command.id;
  if (Date.parse(command.expires_at) < Date.now()) {
    return { id, status: 'failed', error: 'Command expired before it could run' };
  }
  const schema = actionParamsSchemas[command.action];
  const params = schema.safeParse(command.params);
  if (!params.success) return { id, status: 'failed', error: 'Invalid parameters' };
  if (options.fail) return { id, status: 'failed', error: 'Device is busy; try again later' };
  const { serial, model, firmware, mac } = agent.identity;
  const stamp = new Date().toISOString();

  switch (command.action) {
    case 'reboot':
      return { id, status: 'done', output: 'Rebooting' };
    case 'set_info': {
      const p = params.data as { name: string; description: string };
      agent.hostname = p.name.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 63) || agent.hostname;
      return { id, status: 'done', output: `Hostname set to ${agent.hostname}` };
    }
    case 'set_password':
      agent.password = (params.data as { password: string }).password;
      return { id, status: 'done', output: 'Password for user admin changed' };
    case 'monitoring_period': {
      const p = params.data as { period: number };
      agent.setPeriod(p.period);
      return {
        id,
        status: 'done',
        output: `Monitoring period set to ${p.period} s`,
        result: { period: p.period },
      };
    }
    case 'export_backup':
      return {
        id,
        status: 'done',
        file: file(
          `backup-${serial}.txt`,
          'text/plain',
          `# Fleetgate simulator backup\n# ${model} ${serial} ${mac}\n# firmware ${firmware}\n# created ${stamp}\nconfig system\n\toption hostname '${agent.hostname}'\n`,
        ),
      };
    case 'export_event_log':
      return {
        id,
        status: 'done',
        file: file(`events-${serial}.log`, 'text/plain', `${agent.eventLog.slice(-500).join('\n')}\n`),
      };
    case 'export_troubleshoot':
      return {
        id,
        status: 'done',
        file: file(
          `troubleshoot-${serial}.txt`,
          'text/plain',
          `model=${model}\nserial=${serial}\nfirmware=${firmware}\nuptime=${agent.state?.uptime ?? 0}\nsignal=${agent.state?.signal ?? ''}\n`,
        ),
      };
    case 'cli': {
      const p = params.data as { command: string };
      const result = runShell(p.command, agent.shellDevice());
      return { id, status: 'done', output: result.output, result: { exit_code: result.exitCode } };
    }
    case 'open_stream':
      // The agent opens streams itself, at once and outside this queue (agent.ts).
      return { id, status: 'failed', error: 'Streams are opened by the agent' };
  }
}
