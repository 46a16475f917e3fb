// capture-lint for VS Code: starts capture-clangd, one language server for
// C, C++, CUDA and Python, for the languages captureLint.languages names
// (Python by default; the clangd extension serves C++ with clangd.path set
// to capture-clangd). VS Code has no generic language-server client, hence
// this extension (docs/editors.md).
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

/// The server and the documents it gets, from the user's settings.
function clientSettings() {
  const config = vscode.workspace.getConfiguration('captureLint');
  const command = config.get('serverPath') || 'capture-clangd';
  const languages = config.get('languages') || ['python'];
  return {
    server: { command, args: [] },
    client: {
      documentSelector: languages.map((language) => ({ scheme: 'file', language })),
    },
  };
}

async function activate() {
  const settings = clientSettings();
  client = new LanguageClient('captureLint', 'capture-lint', settings.server,
                              settings.client);
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, clientSettings };
