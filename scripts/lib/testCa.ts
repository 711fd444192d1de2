/**
 * A certificate authority made at test time with openssl, in a stage's work folder, and a server
 * certificate for a third-party service's hosts signed by it. Only the n8n started by the stage
 * trusts the CA (NODE_EXTRA_CA_CERTS), so a stand-in of the service on 127.0.0.1 answers for the
 * real host names over HTTPS and nothing else on the machine is affected; both expire in a day.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface TestTls {
	/** The CA certificate, for NODE_EXTRA_CA_CERTS. */
	caFile: string;
	/** The server's key and certificate, for https.createServer. */
	tls: { key: string; cert: string };
}

/** Makes the CA (named after `label`) and a certificate for `hosts` in `dir`. */
export function makeTestTls(dir: string, hosts: string[], label: string): TestTls {
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
		`/CN=Ad Cabinet ${label} CA`,
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
		`/CN=${hosts[0]}`,
		'-keyout',
		file('server.key'),
		'-out',
		file('server.csr'),
	]);
	writeFileSync(
		file('server.ext'),
		[
			`subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`,
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
	return {
		caFile: file('ca.pem'),
		tls: {
			key: readFileSync(file('server.key'), 'utf8'),
			cert: readFileSync(file('server.pem'), 'utf8'),
		},
	};
}
