#!/bin/sh
# Starts n8n as the image's user, node (the Dockerfile's USER), under tini: `docker run <image>`
# runs `n8n` (which starts the editor and API), and `docker run <image> worker` runs `n8n worker`.
# Difference from n8n's entrypoint: certificates mounted at /opt/custom-certificates are not
# trusted automatically; give them to Node with NODE_EXTRA_CA_CERTS instead.
set -e
if [ "$#" -gt 0 ]; then
	exec n8n "$@"
fi
exec n8n
