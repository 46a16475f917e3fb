// Activates the VS Code extension (tool/clangd/vscode/extension.js) outside
// VS Code: 'vscode' answers getConfiguration from SETTINGS (a JSON object of
// captureLint.* values), and 'vscode-languageclient/node' records what the
// extension asks of it. Prints the server command and the languages it is
// started for, one per line, as
//   command CAPTURE-CLANGD
//   language NAME
// so a test can start that very server on a file of each language.
//
//   node vscode_activate.js EXTENSION_DIR [SETTINGS_JSON]
'use strict';
const Module = require('module');
const path = require('path');

const settings = JSON.parse(process.argv[3] || '{}');
const stubs = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({
        get: (key) => settings[section + '.' + key],
      }),
    },
  },
  'vscode-languageclient/node': {
    LanguageClient: class {
      constructor(id, name, server, client) {
        console.log('command ' + server.command);
        for (const s of client.documentSelector)
          console.log('language ' + s.language + ' (' + s.scheme + ')');
      }
      start() { return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (Object.prototype.hasOwnProperty.call(stubs, request))
    return stubs[request];
  return load.apply(this, arguments);
};
const extension = require(path.resolve(process.argv[2], 'extension.js'));
extension.activate().then(() => extension.deactivate());
