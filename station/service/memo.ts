/** `compute`, remembering its last argument and result: the same input gives the very same object (the state's parts keep their identity). */
export function lastOf<A, R>(compute: (argument: A) => R): (argument: A) => R {
  let last: { argument: A; result: R } | null = null;
  return (argument) => {
    if (last === null || last.argument !== argument) last = { argument, result: compute(argument) };
    return last.result;
  };
}
