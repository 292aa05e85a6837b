/**
 * One instance of a class kept alive for the life of the process, made once V8 has settled the class's hidden class
 * (its "slack tracking" ends after the first few instances). Optimized code refers to the hidden classes it checks
 * weakly: when a full GC finds no instance of a class alive, the class's hidden class goes, and with it every
 * optimized function that handles such objects. The pull reader's objects live only while a document is read, so a
 * full GC between two reads threw away the optimized code of the whole decode path (traced: "deoptimization, reason:
 * weak objects" for every reader method), and the next decodes ran unoptimized until recompiled, 5-20x slower for
 * tens of decodes of the 200-record bench response on this machine. A small kept instance keeps the hidden class.
 */
export class KeptInstance {
  private count = 0;
  private kept: unknown;

  /** `make` creates a small instance; it is called once, at the AFTER-th construction of the class. */
  constructor(private readonly make: () => unknown) {}

  /** Called by each constructor of the class. */
  constructed(): void {
    if (++this.count === AFTER) this.kept = this.make();
  }

  /** The kept instance, once made. */
  get instance(): unknown {
    return this.kept;
  }
}

/** Past V8's slack tracking (7 instances), so that the kept instance has the hidden class later ones share. */
const AFTER = 32;
