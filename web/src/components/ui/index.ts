// The building blocks of the public pages and the admin panel, one file per primitive. Public and
// admin looks are variants of one primitive (a Button's size, an Input's or Field's look).
export { Badge, type BadgeTone } from "./Badge";
export { Button, buttonClass, type ButtonSize, type ButtonVariant } from "./Button";
export { Field, FieldError, fieldAria, TextField, type FieldControlProps } from "./Field";
export { Honeypot } from "./Honeypot";
export { CheckIcon, CheckList, CrossIcon } from "./icons";
export { Input, inputClass, type InputLook } from "./Input";
export { LoadError, LoadFailed, LoadingText, RefreshFailed } from "./LoadState";
export { Card, CardGrid, PageHero, Section, SectionHeading, Stat } from "./Page";
export { Pager } from "./Pager";
export { Select, type SelectOption } from "./Select";
export { Counter, Panel } from "./Panel";
export { EditActions, SaveForm } from "./SaveForm";
export {
  DataTable,
  LIST_HEAD,
  STACKED_CELL,
  STACKED_LINE_CELL,
  STACKED_ROW,
  STACKED_TABLE,
  StackedHead,
  Table,
  TableBody,
  TableCell,
  TableRow,
} from "./Table";
