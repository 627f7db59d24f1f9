/** A catalog's tree of templates, by the dotted parts of their keys (`race.refused.duplicate`). */
export interface Catalog {
  readonly [name: string]: string | Catalog;
}
