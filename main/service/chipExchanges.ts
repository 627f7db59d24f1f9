/** The station's follower of the chips exchanged outside a race: the pure follower of replay/ (the floor's table projection reads them with the same exchangeNote). */
export { ChipExchanges, chipExchangesView, exchangeNote } from '../../replay/chipExchange';
