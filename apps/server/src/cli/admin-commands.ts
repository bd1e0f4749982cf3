import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { emailSchema, newPasswordSchema } from '@fleetgate/shared/schemas/auth';
import { generatePassword, hashPassword } from '../auth/passwords';
import { ConfigError, loadConfig } from '../config';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock';
import { type Database, type Db, openDatabase } from '../db/database';
import { accountRepository } from '../modules/account/account.repository';
import { recordAudit } from '../modules/audit/audit.service';
import { attemptCountersRepository } from '../modules/auth/attempt-counters.repository';
import { sessionsRepository } from '../modules/auth/sessions.repository';
import { invitationsRepository } from '../modules/invitations/invitations.repository';
import { adminRepository } from './admin.repository';
import { PromptCancelled } from './password-prompt';

/** The variable a new password may come from, so that it never stands on the command line. */
export const PASSWORD_VARIABLE = 'FLEETGATE_NEW_PASSWORD';

const SUPER_ADMIN_ROLE_ID = DEFAULT_ROLES.find((role) => role.name === 'super_admin')!.id;

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const ADMIN_HELP = `Fleetgate administration, run from the server's shell:

  npm run admin -- reset-password EMAIL [--password]
      Sets a new password for the user EMAIL, signs out all their sessions and lifts
      a sign-in lock on the account.
  npm run admin -- create-super-admin EMAIL [--password]
      Adds a super admin to the root company.
  npm run admin -- help
      Shows this help.

The new password is, in this order:
  - the value of ${PASSWORD_VARIABLE}, when that variable is set;
  - with --password, asked for (twice, not shown), or read from the first line of
    standard input when it is not a terminal;
  - otherwise generated and printed once.
A password is never taken as an argument: it would stay in the shell history and in
the list of processes.

The command uses the server's database: DATABASE_URL, or the embedded one in DATA_DIR
(default ./data). The embedded database allows one process at a time: stop the server
first. Every change is recorded in the audit log.

Exit status: 0 done, 1 failed (unknown user, server running, ...), 2 wrong usage.
`;

export type AdminIo = {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Asks for the new password (`--password`). */
  askPassword(): Promise<string>;
  /** An open database (tests); otherwise the one of DATABASE_URL or of DATA_DIR. */
  database?: Database;
};

/** A refusal with the words the operator reads; nothing was changed. */
class AdminError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

type Command = 'reset-password' | 'create-super-admin';
type Invocation = { command: 'help' } | { command: Command; email: string; askPassword: boolean };

const COMMANDS: readonly string[] = ['reset-password', 'create-super-admin'];

function usage(message: string): AdminError {
  return new AdminError(`${message}\nRun \`npm run admin -- help\` for the commands.`, EXIT.usage);
}

function parse(argv: readonly string[]): Invocation {
  const [command, ...rest] = argv;
  if (command === undefined) throw usage('No command given.');
  if (command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (!COMMANDS.includes(command)) throw usage(`Unknown command "${command}".`);
  let askPassword = false;
  const positional: string[] = [];
  for (const arg of rest) {
    if (arg === '--password') askPassword = true;
    else if (arg.startsWith('--password=') || positional.length >= 1)
      throw usage(
        `A password is not taken as an argument (it would stay in the shell history): set ${PASSWORD_VARIABLE}, or pass --password alone to be asked for it.`,
      );
    else if (arg.startsWith('-')) throw usage(`Unknown option "${arg}".`);
    else positional.push(arg);
  }
  if (positional.length === 0) throw usage(`${command} needs the user's e-mail address.`);
  const email = emailSchema.safeParse(positional[0]);
  if (!email.success) throw usage(`"${positional[0]}" is not an e-mail address.`);
  return { command: command as Command, email: email.data, askPassword };
}

/** The new password and whether it was generated here (then it is printed). */
async function newPassword(
  askPassword: boolean,
  io: AdminIo,
): Promise<{ password: string; generated: boolean }> {
  const fromEnv = io.env[PASSWORD_VARIABLE];
  let password: string;
  if (fromEnv !== undefined && fromEnv !== '') password = fromEnv;
  else if (askPassword) {
    try {
      password = await io.askPassword();
    } catch (error) {
      if (error instanceof PromptCancelled) throw new AdminError(error.message);
      throw error;
    }
  } else return { password: generatePassword(16), generated: true };
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new AdminError(`${checked.error.issues[0]?.message}; nothing was changed.`);
  return { password: checked.data, generated: false };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function passwordReport(
  email: string,
  secret: { password: string; generated: boolean },
  io: AdminIo,
): string {
  return secret.generated
    ? `  E-mail:   ${email}\n  Password: ${secret.password}   (generated now and stored hashed; it is not shown again)\n`
    : `  E-mail:   ${email}\n  Password: the one ${io.env[PASSWORD_VARIABLE] ? `in ${PASSWORD_VARIABLE}` : 'given'}\n`;
}

async function resetPassword(db: Db, email: string, askPassword: boolean, io: AdminIo): Promise<void> {
  const user = await adminRepository.userByEmail(db, email);
  if (!user) throw new AdminError(`No user has the e-mail address ${email}; nothing was changed.`);
  const secret = await newPassword(askPassword, io);
  const passwordHash = await hashPassword(secret.password);
  const ended = await db.transaction(async (tx) => {
    const now = new Date();
    await accountRepository.setPassword(tx, user.id, passwordHash, now);
    const sessions = await sessionsRepository.revokeWhere(tx, user.id, {}, 'password_reset', now);
    // The owner may have locked the account out with wrong guesses: the new password works at once.
    await attemptCountersRepository.clear(tx, `sign-in:${email}`);
    await recordAudit(tx, {
      action: 'admin.reset_password',
      actorUserId: null,
      companyId: user.companyId,
      targetType: 'user',
      targetId: user.id,
      details: { via: 'command line', sessions_ended: sessions.length },
    });
    return sessions.length;
  });
  io.out(`Password reset; ${plural(ended, 'session')} signed out.\n${passwordReport(email, secret, io)}`);
}

async function createSuperAdmin(db: Db, email: string, askPassword: boolean, io: AdminIo): Promise<void> {
  const root = await adminRepository.rootCompany(db);
  if (!root)
    throw new AdminError(
      'The database has no root company yet: start the server once (npm start), then try again.',
    );
  if (await adminRepository.userByEmail(db, email))
    throw new AdminError(
      `A user with the e-mail address ${email} exists already; nothing was changed. To set their password: npm run admin -- reset-password ${email}`,
    );
  const secret = await newPassword(askPassword, io);
  const passwordHash = await hashPassword(secret.password);
  await db.transaction(async (tx) => {
    const id = await invitationsRepository.insertUser(tx, {
      email,
      username: email.split('@')[0]!,
      passwordHash,
      companyId: root.id,
      roleId: SUPER_ADMIN_ROLE_ID,
    });
    await recordAudit(tx, {
      action: 'admin.create_super_admin',
      actorUserId: null,
      companyId: root.id,
      targetType: 'user',
      targetId: id,
      details: { via: 'command line', email },
    });
  });
  io.out(`Super admin created in ${root.name}.\n${passwordReport(email, secret, io)}`);
}

/**
 * Opens the server's database. The embedded one must exist already and be free: PGlite
 * is one process's, and the data-directory lock says whether the server holds it.
 */
async function openServerDatabase(env: NodeJS.ProcessEnv): Promise<{ database: Database; release(): void }> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new AdminError(error.message);
    throw error;
  }
  if (config.databaseUrl) {
    return { database: await openDatabase({ kind: 'postgres', url: config.databaseUrl }), release: () => {} };
  }
  const dataDir = path.join(config.dataDir, 'pglite');
  if (!existsSync(dataDir))
    throw new AdminError(
      `There is no Fleetgate database in ${config.dataDir}. Start the server once (npm start), or set DATA_DIR (or DATABASE_URL) to the server's.`,
    );
  let unlock: () => void;
  try {
    unlock = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError)
      throw new AdminError(
        `The Fleetgate server is running on ${config.dataDir}, and its embedded database allows one process at a time. Stop the server first, run this command again, then start the server.`,
      );
    throw error;
  }
  try {
    return { database: await openDatabase({ kind: 'pglite', dataDir }), release: unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Runs one admin command; answers the exit status. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    const invocation = parse(argv);
    if (invocation.command === 'help') {
      io.out(ADMIN_HELP);
      return EXIT.ok;
    }
    const opened = io.database
      ? { database: io.database, release: () => {} }
      : await openServerDatabase(io.env);
    try {
      const run = invocation.command === 'reset-password' ? resetPassword : createSuperAdmin;
      await run(opened.database.db, invocation.email, invocation.askPassword, io);
    } finally {
      if (!io.database) await opened.database.close();
      opened.release();
    }
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    io.err(`${error.message}\n`);
    return error.exitCode;
  }
}
