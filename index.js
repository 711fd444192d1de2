// n8n loads nodes and credentials through the "n8n" section of package.json; nothing to export here.
module.exports = {};
