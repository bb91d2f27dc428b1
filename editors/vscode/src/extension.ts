// The puccini-rs TOSCA extension: starts `puccini-rs lsp` (the language server, over stdio) for
// YAML and TOSCA documents. The server decides which documents are TOSCA (those with
// `tosca_definitions_version`); the extension only starts, stops and restarts it.

import { promises as fs, constants as fsConstants } from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

/** The configuration section, also the client id (so `puccini-rs.trace.server` traces it). */
const SECTION = 'puccini-rs';

let output: vscode.OutputChannel | undefined;
let client: LanguageClient | undefined;
/** The last start, stop or restart: each waits for the one before, so they never overlap. */
let lifecycle: Promise<void> = Promise.resolve();

/** Called by VS Code when a YAML or TOSCA document is first opened. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
    output = vscode.window.createOutputChannel('puccini-rs');
    context.subscriptions.push(
        output,
        vscode.commands.registerCommand(`${SECTION}.restartServer`, () => restart()),
        vscode.commands.registerCommand(`${SECTION}.showOutput`, () => output?.show(true)),
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (event.affectsConfiguration(`${SECTION}.path`) || event.affectsConfiguration(`${SECTION}.args`)) {
                void restart();
            }
        }),
    );
    await queue(start);
}

/** Called by VS Code on shutdown: stops the server. */
export function deactivate(): Thenable<void> {
    return queue(stop);
}

/** Stops the running server, if any, and starts one with the current settings. */
function restart(): Promise<void> {
    return queue(async () => {
        await stop();
        await start();
    });
}

/** Runs `step` after every step queued before it. */
function queue(step: () => Promise<void>): Promise<void> {
    lifecycle = lifecycle.then(step, step);
    return lifecycle;
}

/** Starts `<puccini-rs.path> lsp <puccini-rs.args...>`; a failure is shown, never thrown. */
async function start(): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const command = expandHome(config.get<string>('path', 'puccini-rs').trim() || 'puccini-rs');
    const args = ['lsp', ...config.get<string[]>('args', [])];

    // No `transport` option: stdio is the default, and `TransportKind.stdio` would make the
    // client append a `--stdio` argument the server does not take.
    const serverOptions: ServerOptions = { command, args };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [
            { scheme: 'file', language: 'yaml' },
            { scheme: 'untitled', language: 'yaml' },
            { scheme: 'file', language: 'tosca' },
            { scheme: 'untitled', language: 'tosca' },
        ],
        outputChannel: output,
    };

    if (!(await isExecutable(command))) {
        output?.appendLine(`Not found or not executable: ${command}`);
        // Not awaited: activation must not wait for the user to dismiss the message.
        void vscode.window
            .showErrorMessage(
                `puccini-rs: "${command}" was not found. Install puccini-rs or set "puccini-rs.path" to the executable.`,
                'Open Settings',
            )
            .then((choice) => {
                if (choice === 'Open Settings') {
                    void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.path`);
                }
            });
        return;
    }

    output?.appendLine(`Starting ${command} ${args.join(' ')}`);
    const next = new LanguageClient(SECTION, 'puccini-rs TOSCA', serverOptions, clientOptions);
    try {
        await next.start();
        client = next;
    } catch {
        // The client has already logged the failure and shown a notification.
        void next.dispose().catch(() => undefined);
    }
}

/** Stops the running server, if any. */
async function stop(): Promise<void> {
    const running = client;
    client = undefined;
    if (running !== undefined) {
        try {
            await running.dispose();
        } catch (error) {
            output?.appendLine(`Stopping the language server: ${String(error)}`);
        }
    }
}

/** `~/bin/puccini-rs` is `$HOME/bin/puccini-rs`; any other value is used as written. */
function expandHome(value: string): string {
    if (value === '~') {
        return os.homedir();
    }
    if (value.startsWith('~/') || value.startsWith('~\\')) {
        return path.join(os.homedir(), value.slice(2));
    }
    return value;
}

/** Whether `command` names an executable file: a path as written, or a name found on `PATH`. */
async function isExecutable(command: string): Promise<boolean> {
    const candidates =
        command.includes('/') || command.includes('\\')
            ? [command]
            : (process.env.PATH ?? '')
                  .split(path.delimiter)
                  .filter((dir) => dir !== '')
                  .map((dir) => path.join(dir, command));
    // On Windows a bare name may omit its extension (`puccini-rs` is `puccini-rs.exe`).
    const extensions = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE').split(';')] : [''];
    for (const candidate of candidates) {
        for (const extension of extensions) {
            try {
                await fs.access(candidate + extension, fsConstants.X_OK);
                if ((await fs.stat(candidate + extension)).isFile()) {
                    return true;
                }
            } catch {
                // Not here; try the next candidate.
            }
        }
    }
    return false;
}
