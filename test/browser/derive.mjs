// Derives a secured key as a shop's Node.js server does, with the browser client
// package's generateSecuredKey: argv[2] is JSON {parentKey, restrictions}; prints the key
// as JSON.
import { generateSecuredKey } from "../../web/secured-key.js";

const { parentKey, restrictions } = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(generateSecuredKey(parentKey, restrictions)));
