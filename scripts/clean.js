// Removes the previous build so deleted sources never linger in dist/.
require('node:fs').rmSync(require('node:path').join(__dirname, '..', 'dist'), {
	recursive: true,
	force: true,
});
