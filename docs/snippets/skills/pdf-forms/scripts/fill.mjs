// Prints the fields it would fill, as JSON: node scripts/fill.mjs line1=Ada "line2=Ada Inc."
const fields = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=', 2)));
console.log(JSON.stringify({ form: 'w9', fields }));
