/** burnlint for VS Code: starts the burnlint language server and adds its commands. */
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ErrorHandler,
  ExecuteCommandRegistrationOptions,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RegistrationData,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { CLIENT_OWNED_COMMANDS, COMMANDS, registerCommands } from "./commands";
import { describeFileStatus } from "./fileStatus";
import { ManagedEnvError, ManagedHost, ensureManagedEnv, spawnStreaming } from "./managedEnv";
import { ServerCommand, nodeHost, resolveServer } from "./serverResolution";
import { SECTION, needsRestart, readClientSettings, serverSettings } from "./settings";
import { StatusBar } from "./statusBar";

const RESTART_DELAY_MS = 1000;
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60_000;

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("burnlint", { log: true });
  const status = new StatusBar(COMMANDS.showOutput);
  context.subscriptions.push(output, status);
  manager = new ServerManager(context, output, status);
  context.subscriptions.push(manager);
  registerCommands(context, manager);

  context.subscriptions.push(
    // The tooltip names the active file's burn era: follow the active editor, and its results.
    vscode.window.onDidChangeActiveTextEditor(() => manager?.refreshFileStatus()),
    vscode.languages.onDidChangeDiagnostics((event) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (active && event.uris.some((uri) => uri.toString() === active)) {
        manager?.refreshFileStatus();
      }
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((s) => event.affectsConfiguration(s))) {
        output.info("burnlint.path or burnlint.interpreter changed: restarting the server");
        manager?.scheduleRestart();
      } else if (event.affectsConfiguration(`${SECTION}.enable`)) {
        manager?.showRunning();
      }
      // Server settings need nothing here: the server registers for didChangeConfiguration
      // (vscode-languageclient then notifies it) and pulls them with workspace/configuration.
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => manager?.scheduleRestart()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (manager?.server && manager.server.source !== "path setting" && manager.server.source !== "interpreter setting") {
        manager.scheduleRestart();
      }
    }),
  );
  // Do not block activation on a pip install: start in the background.
  void manager.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
}

class ServerManager implements vscode.Disposable {
  client: LanguageClient | undefined;
  server: ServerCommand | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private failed = false;
  private statusRequest = 0;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
    private readonly status: StatusBar,
  ) {}

  /** Starts the server unless it is running or starting; resolves to the client or undefined. */
  start(): Promise<LanguageClient | undefined> {
    if (this.client?.isRunning()) {
      return Promise.resolve(this.client);
    }
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async readyClient(): Promise<LanguageClient | undefined> {
    if (this.starting) {
      return this.starting;
    }
    if (this.client?.isRunning()) {
      return this.client;
    }
    return this.start();
  }

  async restart(): Promise<void> {
    this.output.info("restarting the burnlint server");
    await this.starting?.catch(() => undefined);
    await this.stop();
    await this.start();
  }

  scheduleRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.restart(), RESTART_DELAY_MS);
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(2000);
      } catch (error) {
        this.output.warn(`stopping the server: ${String(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
    this.status.set("stopped");
  }

  /** "running", or "disabled" when `burnlint.enable` is false (the server then reports nothing). */
  showRunning(): void {
    if (this.server && this.client?.isRunning()) {
      const enabled = vscode.workspace.getConfiguration(SECTION).get<boolean>("enable", true);
      this.status.set(enabled ? "running" : "disabled", describe(this.server));
    }
  }

  /** Asks the server (`burnlint.status`) for the active Rust file's era and notes, for the tooltip. */
  refreshFileStatus(): void {
    const client = this.client;
    const document = vscode.window.activeTextEditor?.document;
    if (!client?.isRunning() || !document || document.languageId !== "rust") {
      this.status.setFile(undefined);
      return;
    }
    const request = ++this.statusRequest;
    client
      .sendRequest(ExecuteCommandRequest.type, {
        command: COMMANDS.status,
        arguments: [client.code2ProtocolConverter.asUri(document.uri)],
      })
      .then(
        (answer) => {
          // Only the latest request speaks: the user may have switched files meanwhile.
          if (request === this.statusRequest) {
            this.status.setFile(describeFileStatus(answer));
          }
        },
        (error: unknown) => {
          if (request === this.statusRequest) {
            this.output.debug(`burnlint.status: ${String(error)}`);
            this.status.setFile(undefined);
          }
        },
      );
  }

  dispose(): void {
    clearTimeout(this.restartTimer);
    void this.stop();
  }

  private async doStart(): Promise<LanguageClient | undefined> {
    if (this.client) {
      await this.stop(); // a client that gave up after crashes: dispose it before a new one
    }
    this.failed = false;
    this.status.set("resolving");
    let server: ServerCommand | undefined;
    try {
      server = await this.resolve();
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error), error instanceof ManagedEnvError ? error.hint : undefined);
      return undefined;
    }
    if (!server) {
      return undefined;
    }
    this.server = server;
    this.status.set("starting", describe(server));
    this.output.info(`starting: ${server.command} ${server.args.join(" ")}`);
    const client = this.createClient(server);
    this.client = client;
    client.onDidChangeState((event) => {
      if (this.client !== client) {
        return;
      }
      if (event.newState === State.Running) {
        this.showRunning();
        this.refreshFileStatus();
      } else if (event.newState === State.Starting) {
        this.status.set("starting", describe(server));
      } else if (!this.failed) {
        this.status.set("stopped", describe(server));
      }
    });
    try {
      await client.start();
      this.output.info(`burnlint ${server.version ?? ""} server running (${server.source})`);
      return client;
    } catch (error) {
      if (this.client === client) {
        this.client = undefined;
      }
      await client.dispose().catch(() => undefined);
      this.fail(`The burnlint server (${server.command} ${server.args.join(" ")}) did not start: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Resolution order: settings, workspace venv, PATH, then the managed environment. */
  private async resolve(): Promise<ServerCommand | undefined> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const config = vscode.workspace.getConfiguration(SECTION);
    const client = readClientSettings(config, { workspaceFolder: folders[0], userHome: os.homedir() });
    const host = nodeHost();
    const result = await resolveServer({ ...client, workspaceFolders: folders, trusted: vscode.workspace.isTrusted }, host);
    result.log.forEach((line) => this.output.info(line));
    if (result.kind === "found") {
      return result.server;
    }
    if (result.kind === "error") {
      this.fail(result.message, "settings");
      return undefined;
    }
    this.output.info("falling back to the managed environment");
    const managedHost: ManagedHost = {
      ...host,
      storageDir: this.context.globalStorageUri.fsPath,
      bundledDir: path.join(this.context.extensionPath, "bundled"),
      pythonExtensionInterpreter: () => pythonExtensionInterpreter(vscode.workspace.workspaceFolders?.[0]?.uri),
      runStreaming: (command, args, onLine, timeoutMs) => spawnStreaming(command, args, onLine, timeoutMs),
      log: (message) => this.output.info(message),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    // A ready environment reports nothing; a notification appears only while pip works.
    let latest = "";
    let notify: ((message: string) => void) | undefined;
    let finish: (() => void) | undefined;
    let notificationOpen = false;
    const report = (message: string): void => {
      latest = message;
      this.status.set("installing", message);
      if (notify) {
        notify(message);
      } else if (!notificationOpen) {
        notificationOpen = true;
        void vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: "burnlint: setting up its Python environment" },
          (progress) =>
            new Promise<void>((done) => {
              notify = (m) => progress.report({ message: m });
              finish = done;
              notify(latest);
            }),
        );
      }
    };
    try {
      return await ensureManagedEnv(managedHost, report);
    } finally {
      finish?.();
    }
  }

  private createClient(server: ServerCommand): LanguageClient {
    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      transport: TransportKind.stdio,
      options: { env: { ...process.env, PYTHONUNBUFFERED: "1", PYTHONIOENCODING: "utf-8" } },
    };
    const output = this.output;
    let restarts: number[] = [];
    const errorHandler: ErrorHandler = {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        const now = Date.now();
        restarts = [...restarts.filter((t) => now - t < RESTART_WINDOW_MS), now];
        if (restarts.length <= MAX_RESTARTS) {
          output.warn(`the burnlint server exited; restarting (${restarts.length}/${MAX_RESTARTS})`);
          return { action: CloseAction.Restart };
        }
        this.fail(`The burnlint server crashed ${MAX_RESTARTS + 1} times in ${RESTART_WINDOW_MS / 60_000} minutes and will not be restarted. See the output for details.`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "rust" },
        { scheme: "untitled", language: "rust" },
      ],
      outputChannel: output,
      traceOutputChannel: output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      diagnosticCollectionName: "burnlint",
      // languageclient >= 10 no longer pulls on change by default; burnlint wants live results.
      diagnosticPullOptions: { onChange: true, onSave: true, onFocus: false, onTabs: false },
      initializationOptions: () => ({ [SECTION]: serverSettings(vscode.workspace.getConfiguration(SECTION)) }),
      errorHandler,
      markdown: { isTrusted: false, supportHtml: false },
      middleware: {
        workspace: {
          // Answer `workspace/configuration` for our section with the server's keys only, typed
          // and defaulted (client-only keys such as `path` stay in the client).
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) {
              return result;
            }
            return params.items.map((item, i) => {
              if (item.section !== SECTION) {
                return result[i];
              }
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              return serverSettings(vscode.workspace.getConfiguration(SECTION, scope));
            });
          },
        },
      },
    };
    const client = new LanguageClient(SECTION, "burnlint", serverOptions, clientOptions);
    keepClientCommands(client, CLIENT_OWNED_COMMANDS, output);
    return client;
  }

  private fail(message: string, hint?: string): void {
    this.failed = true;
    this.output.error(message);
    this.status.set("error", message);
    const actions = hint === "settings" || hint === "python" || hint === "venv" ? ["Open Settings", "Show Output", "Retry"] : ["Show Output", "Retry"];
    void vscode.window.showErrorMessage(`burnlint: ${message}`, ...actions).then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "@ext:burnlint.burnlint burnlint.");
      } else if (choice === "Show Output") {
        this.output.show(true);
      } else if (choice === "Retry") {
        void this.restart();
      }
    });
  }
}

function describe(server: ServerCommand): string {
  return `burnlint ${server.version ?? "?"} from ${server.source}: ${server.command} ${server.args.join(" ")}`;
}

/**
 * vscode-languageclient registers a VS Code command for every command the server advertises in
 * `executeCommandProvider`. The extension implements `burnlint.explain` itself (cursor, input box,
 * preview) and calls the server's command with `workspace/executeCommand`, so the automatic
 * registration of that name must be skipped, or registering it twice fails.
 */
function keepClientCommands(client: LanguageClient, owned: ReadonlySet<string>, output: vscode.LogOutputChannel): void {
  type Feature = { register(data: RegistrationData<ExecuteCommandRegistrationOptions>): void };
  const feature = (client as unknown as { getFeature(method: string): Feature | undefined }).getFeature("workspace/executeCommand");
  if (!feature || typeof feature.register !== "function") {
    output.warn("vscode-languageclient has no executeCommand feature to filter; server commands are registered as is");
    return;
  }
  const register = feature.register.bind(feature);
  feature.register = (data) => {
    const commands = (data.registerOptions.commands ?? []).filter((c) => !owned.has(c));
    register({ ...data, registerOptions: { ...data.registerOptions, commands } });
  };
}

/** The Python extension's interpreter for `resource`, when that extension is installed. */
async function pythonExtensionInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (!extension) {
    return undefined;
  }
  type Api = {
    environments?: {
      getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
      resolveEnvironment(env: { path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    };
  };
  const work = (async () => {
    const api = (extension.isActive ? extension.exports : await extension.activate()) as Api | undefined;
    const envs = api?.environments;
    const active = envs?.getActiveEnvironmentPath(resource);
    if (!envs || !active) {
      return undefined;
    }
    const resolved = await envs.resolveEnvironment(active);
    return resolved?.executable?.uri?.fsPath;
  })();
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000));
  return Promise.race([work, timeout]).catch(() => undefined);
}
