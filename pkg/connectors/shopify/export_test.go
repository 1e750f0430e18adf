package shopify

// OrdersPage is the most orders a page of a poll holds, for the conformance suite.
var OrdersPage = ordersPage
