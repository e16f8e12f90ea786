// The server's door to the one state machine: the states, their moves and
// their named groups live in shared/orders/ (the browser reads them too).
export * from "../../shared/orders/states";
export * from "../../shared/orders/state-groups";
