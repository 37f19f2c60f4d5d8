// electron-builder's afterPack hook (electron-builder.yml): fuses are flipped on the packed
// binary before electron-builder signs it.
const { applyFuses } = require('./fuses.cjs');

module.exports = async function afterPack(context) {
  await applyFuses(context);
};
