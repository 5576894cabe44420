"""The MCP front door: the two tools (`server`), the resources and the guide prompt (`resources`,
`guide.md`), the JSON-RPC answers the SDK does not give (`jsonrpc`), the vault opened beside the handshake
(`opening`), the server's one malloc arena (`malloc`), and the first-look demo (`demo`)."""
