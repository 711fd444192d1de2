/**
 * What the stage makes at test time with openssl and node:crypto, in its work folder: a CA that
 * only n8n's Node trusts (NODE_EXTRA_CA_CERTS), a server certificate for the Google hosts signed by
 * it, and the service account's RSA key pair.
 */
import { generateKeyPairSync } from 'node:crypto';
import { makeTestTls } from '../lib/testCa';

export const GOOGLE_HOSTS = ['oauth2.googleapis.com', 'sheets.googleapis.com'];

export interface Keys {
	caFile: string;
	tls: { key: string; cert: string };
	account: { email: string; privateKeyPem: string; publicKeyPem: string };
}

export function makeKeys(dir: string): Keys {
	const { caFile, tls } = makeTestTls(dir, GOOGLE_HOSTS, 'sheets stage');
	const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
	return {
		caFile,
		tls,
		account: {
			email: 'ad-stats-sync@ad-cabinet-stage.iam.gserviceaccount.com',
			privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
			publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
		},
	};
}
