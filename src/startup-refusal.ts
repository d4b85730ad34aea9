import { ConfigError } from './config/config.schema';
import { DataDirError } from './database/data-dir-lock';
import { ScenarioError } from './rules/model/scenario-error';

/** EX_CONFIG (sysexits.h): what the server was given is wrong, not the server. */
const EX_CONFIG = 78;

/**
 * A start refused for something the operator must fix (the environment, the scenario data, the
 * data folder): told in plain lines with no stack, since the message already names what to fix.
 * Anything else is a failure of the server, logged as one.
 */
export function startupRefusal(err: unknown): { readonly message: string; readonly exitCode: number } | null {
  if (err instanceof ConfigError) return { message: err.message, exitCode: EX_CONFIG };
  if (err instanceof ScenarioError)
    return { message: `${err.message}\nEvery folder under src/scenarios/ is read at start (README.md, "Game systems and scenarios").`, exitCode: EX_CONFIG };
  if (err instanceof DataDirError) return { message: err.message, exitCode: 1 };
  return null;
}

/** Writes the refusal and exits, or does nothing when err is not one. */
export function exitIfRefused(err: unknown): void {
  const refusal = startupRefusal(err);
  if (refusal === null) return;
  process.stderr.write(`${refusal.message}\n`);
  process.exit(refusal.exitCode);
}
