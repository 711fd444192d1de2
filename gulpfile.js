const { src, dest } = require('gulp');

// tsc does not copy icons; n8n loads them from dist next to the compiled node or credential.
function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = copyIcons;
