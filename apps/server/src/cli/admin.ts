import { runAdmin } from './admin-commands';
import { askNewPassword } from './password-prompt';

// `npm run admin -- COMMAND ...`: see ADMIN_HELP in admin-commands.ts.
const code = await runAdmin(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  askPassword: () => askNewPassword(),
}).catch((error: unknown) => {
  process.stderr.write(
    `The admin command failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  return 1;
});
process.exitCode = code;
