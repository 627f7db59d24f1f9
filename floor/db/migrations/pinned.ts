/**
 * The SHA-256 of each released migration's text (migrate.ts's migrationChecksum): a database
 * records the checksum of every migration it ran, and a floor whose migration of that version
 * reads otherwise is refused. Migration 3 writes those of 1 and 2 for the rows older floors recorded.
 * Every released migration is pinned here, and floor/db/pinned.test.ts checks each against its
 * file: pin a new migration once a release carries it; never change or remove a pin.
 */
export const RELEASED_CHECKSUMS: Readonly<Record<number, string>> = {
  1: '04ea407ec32053bbc2d4b735eccfeb25280ff087ab5d257d685fca900112476a',
  2: 'dee9798eb4d78038a860091f5724cbd2977e04e0682f78d86e56d9234d81ad65',
  3: 'a6cd7df70c7d394ece32fffbd23fe5d792150be8b43778972c3c676202c5fb13',
  4: 'b622166bcc5ad4d4c4872aa896bc78e5cce5f49745923b544b4176da6ad12749',
  5: '8c6bfd0871d7778a0035b1542ff2379590a849a8e428db775fc6f3a8ddd74727',
  6: '9a6834759674bf74b1bd4858a2f4d41c6d73e4a45033cc5d4554f9245eb5b890',
  7: '69936374c006ee9bab274c66a13db06ea897552ba5b1ebd79487a801d5a58aa4',
  8: 'b0d709bda3ba4c3711f9bcd2e82bd035296540cdaf30b35856670cc6a7be07e4',
  9: '93f0921759b100ebd5a38148e3770efe4b098df7856aef0722b1a16913db8338',
  10: '1de9f969d52206f15891be3541755111cbb79c7470285a6418a24c271a3170e5',
  11: 'cd6fa30f6021f3a6dcc1fe2fb5631b49f2303c03db9c82dfaafa86ed6dc915e1',
  12: '0e9cd3957c1974662f04e9cc54ddbc274a213de05b59b4c40e27a65c9bea1e3c',
  13: '3eadbe83b3e5d6ef54f3fba454a71f38b08ca1f2f4149ac4ae06228fb189922a',
  14: '05a4f396b6ffaaef7d769e508f6ef8bc325a13c294ba9ebdfcdfa0e0fca9c9fb',
  15: 'e45fbd2df582e185c8c77d78e03a6461cfdc3d65c75760980b4c5406d2fa615f',
  16: '4f5456c156d735ae6902401402f82ce6ab8b51e86e51258dc060f88dd5c7051d',
  17: '60956a82de878e58d0cd84c0021227b074d4846aec98f19a4b00add94836eb75',
  18: 'df4f362f3341c909f2d96683222529515d4bb5ab746f5dd2e6a610ade7f947c0',
  19: '30f0fece43d068333a9da7ca98cbae6a5c7d09ae1ff7aa28b92ed6adebd61562',
  20: '3734e1f4937c687e5348098139a8c0f47a06ae3709683a68587689109642f987',
  21: '3c8a8294b3def633c0a356083bf5bd24c948ee9ed6c18cb46d645e15ac6c31ca',
};
