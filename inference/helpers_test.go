package inference

import "github.com/shopspring/decimal"

func centsToDecimal(c int64) decimal.Decimal { return decimal.New(c, -2) }
