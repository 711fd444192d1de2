/**
 * What the stage makes at test time with openssl and node:crypto, in its work folder: a CA that
 * only n8n's Node trusts (NODE_EXTRA_CA_CERTS), a server certificate for the Google hosts signed by
 * it, and the service account's RSA key pair.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GOOGLE_HOSTS = ['oauth2.googleapis.com', 'sheets.googleapis.com'];

export interface Keys {
	caFile: string;
	tls: { key: string; cert: string };
	account: { email: string; privateKeyPem: string; publicKeyPem: string };
}

export function makeKeys(dir: string): Keys {
	const file = (name: string) => join(dir, name);
	const openssl = (args: string[]) =>
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	openssl([
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'1',
		'-subj',
		'/CN=Ad Cabinet sheets stage CA',
		'-keyout',
		file('ca.key'),
		'-out',
		file('ca.pem'),
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
	]);
	openssl([
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-subj',
		'/CN=googleapis.com',
		'-keyout',
		file('server.key'),
		'-out',
		file('server.csr'),
	]);
	writeFileSync(
		file('server.ext'),
		[
			`subjectAltName=${GOOGLE_HOSTS.map((h) => `DNS:${h}`).join(',')}`,
			'extendedKeyUsage=serverAuth',
			'basicConstraints=CA:FALSE',
		].join('\n'),
	);
	openssl([
		'x509',
		'-req',
		'-in',
		file('server.csr'),
		'-CA',
		file('ca.pem'),
		'-CAkey',
		file('ca.key'),
		'-CAcreateserial',
		'-days',
		'1',
		'-extfile',
		file('server.ext'),
		'-out',
		file('server.pem'),
	]);
	const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
	return {
		caFile: file('ca.pem'),
		tls: {
			key: readFileSync(file('server.key'), 'utf8'),
			cert: readFileSync(file('server.pem'), 'utf8'),
		},
		account: {
			email: 'ad-stats-sync@ad-cabinet-stage.iam.gserviceaccount.com',
			privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
			publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
		},
	};
}
