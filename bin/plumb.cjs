#!/usr/bin/env node
// Runs the bundled CLI that `npm run build` writes (scripts/bundle.js). PLUMB_DEBUG prints internal
// errors' stacks against src/ through the source map.
'use strict';
if (process.env.PLUMB_DEBUG) process.setSourceMapsEnabled(true);
require('../dist/bundle/plumb.cjs');
