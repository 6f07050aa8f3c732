// Package dynamo is the DynamoDB table adapter: items keyed by string PK/SK,
// the version as a number attribute and the feature's document as a binary
// attribute, conditions as condition expressions, transactions as
// TransactWriteItems.
package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/lectern/lectern/shared/store"
)

var _ store.Table = (*Table)(nil)

// Attribute names. "version" and "data" are DynamoDB reserved words, so
// expressions refer to them through #v and #d.
const (
	attrPK      = "PK"
	attrSK      = "SK"
	attrVersion = "version"
	attrData    = "data"
)

// Table is a store.Table in one DynamoDB table.
type Table struct {
	client *dynamodb.Client
	name   string
}

// New uses the existing table name through client.
func New(client *dynamodb.Client, name string) *Table {
	return &Table{client: client, name: name}
}

// CreateTable makes an on-demand table with the PK/SK key schema and waits
// until it is active (tests and local tooling; AWS stacks use template.yaml).
func CreateTable(ctx context.Context, client *dynamodb.Client, name string) error {
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(attrSK), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	return dynamodb.NewTableExistsWaiter(client).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute)
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		attrPK: &types.AttributeValueMemberS{Value: pk},
		attrSK: &types.AttributeValueMemberS{Value: sk},
	}
}

func encode(it store.Item) map[string]types.AttributeValue {
	av := key(it.PK, it.SK)
	av[attrVersion] = &types.AttributeValueMemberN{Value: strconv.FormatInt(it.Version, 10)}
	data := it.Data
	if data == nil {
		data = []byte{} // DynamoDB stores an empty binary; nil would be refused
	}
	av[attrData] = &types.AttributeValueMemberB{Value: data}
	return av
}

func decode(av map[string]types.AttributeValue) (store.Item, error) {
	var it store.Item
	pk, ok1 := av[attrPK].(*types.AttributeValueMemberS)
	sk, ok2 := av[attrSK].(*types.AttributeValueMemberS)
	ver, ok3 := av[attrVersion].(*types.AttributeValueMemberN)
	if !ok1 || !ok2 || !ok3 {
		return it, fmt.Errorf("item lacks PK, SK or version: %w", store.ErrInvalid)
	}
	v, err := strconv.ParseInt(ver.Value, 10, 64)
	if err != nil {
		return it, fmt.Errorf("item %s/%s version %q: %w", pk.Value, sk.Value, ver.Value, err)
	}
	it = store.Item{PK: pk.Value, SK: sk.Value, Version: v}
	if d, ok := av[attrData].(*types.AttributeValueMemberB); ok {
		it.Data = d.Value
	}
	return it, nil
}

// condition is a condition expression with its names and values.
type condition struct {
	expr   *string
	names  map[string]string
	values map[string]types.AttributeValue
}

func toCondition(c store.Condition) condition {
	switch c.Kind {
	case store.CondAbsent:
		return condition{expr: aws.String("attribute_not_exists(PK)")}
	case store.CondExists:
		return condition{expr: aws.String("attribute_exists(PK)")}
	case store.CondVersion:
		return condition{
			expr:   aws.String("attribute_exists(PK) AND #v = :expected"),
			names:  map[string]string{"#v": attrVersion},
			values: map[string]types.AttributeValue{":expected": &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Version, 10)}},
		}
	}
	return condition{}
}

// Get implements store.Table with a strongly consistent read, as the bbolt
// adapter reads its own writes.
func (t *Table) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if err := store.ValidateKey(pk, sk); err != nil {
		return store.Item{}, err
	}
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(t.name), Key: key(pk, sk), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Item{}, fmt.Errorf("get %s/%s: %w", pk, sk, err)
	}
	if out.Item == nil {
		return store.Item{}, fmt.Errorf("get %s/%s: %w", pk, sk, store.ErrNotFound)
	}
	return decode(out.Item)
}

// Put implements store.Table.
func (t *Table) Put(ctx context.Context, it store.Item, cond store.Condition) error {
	if err := store.ValidateKey(it.PK, it.SK); err != nil {
		return err
	}
	c := toCondition(cond)
	_, err := t.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(t.name), Item: encode(it),
		ConditionExpression: c.expr, ExpressionAttributeNames: c.names, ExpressionAttributeValues: c.values,
	})
	return mapWriteErr(fmt.Sprintf("put %s", it.Key()), err)
}

// Delete implements store.Table.
func (t *Table) Delete(ctx context.Context, pk, sk string, cond store.Condition) error {
	if err := store.ValidateKey(pk, sk); err != nil {
		return err
	}
	c := toCondition(cond)
	_, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(t.name), Key: key(pk, sk),
		ConditionExpression: c.expr, ExpressionAttributeNames: c.names, ExpressionAttributeValues: c.values,
	})
	return mapWriteErr(fmt.Sprintf("delete %s/%s", pk, sk), err)
}

func mapWriteErr(what string, err error) error {
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return fmt.Errorf("%s: %w", what, store.ErrConditionFailed)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Query implements store.Table. DynamoDB may stop a page early (1 MB), so it
// keeps reading until the page is full or the key range ends.
func (t *Table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if q.PK == "" {
		return store.Page{}, fmt.Errorf("query needs a PK: %w", store.ErrInvalid)
	}
	limit := q.Limit
	if limit <= 0 || limit > store.MaxQueryLimit {
		limit = store.MaxQueryLimit
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.name),
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(!q.Descending),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: q.PK}},
	}
	if q.SKPrefix != "" {
		in.KeyConditionExpression = aws.String("PK = :pk AND begins_with(SK, :prefix)")
		in.ExpressionAttributeValues[":prefix"] = &types.AttributeValueMemberS{Value: q.SKPrefix}
	}
	if q.Cursor != "" {
		after, err := store.DecodeCursor(q.Cursor)
		if err != nil {
			return store.Page{}, err
		}
		in.ExclusiveStartKey = key(q.PK, after)
	}
	var page store.Page
	for {
		// Ask for one more than needed to know whether another page exists.
		in.Limit = aws.Int32(int32(limit + 1 - len(page.Items)))
		out, err := t.client.Query(ctx, in)
		if err != nil {
			return store.Page{}, fmt.Errorf("query %s/%s*: %w", q.PK, q.SKPrefix, err)
		}
		for _, av := range out.Items {
			it, err := decode(av)
			if err != nil {
				return store.Page{}, err
			}
			if len(page.Items) == limit {
				page.Next = store.EncodeCursor(page.Items[limit-1].SK)
				return page, nil
			}
			page.Items = append(page.Items, it)
		}
		if out.LastEvaluatedKey == nil {
			return page, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Transact implements store.Table with TransactWriteItems.
func (t *Table) Transact(ctx context.Context, writes []store.Write) error {
	if err := store.ValidateWrites(writes); err != nil {
		return err
	}
	items := make([]types.TransactWriteItem, len(writes))
	for i, w := range writes {
		c := toCondition(w.Cond)
		switch w.Op {
		case store.OpPut:
			items[i].Put = &types.Put{TableName: aws.String(t.name), Item: encode(w.Item),
				ConditionExpression: c.expr, ExpressionAttributeNames: c.names, ExpressionAttributeValues: c.values}
		case store.OpDelete:
			items[i].Delete = &types.Delete{TableName: aws.String(t.name), Key: key(w.Item.PK, w.Item.SK),
				ConditionExpression: c.expr, ExpressionAttributeNames: c.names, ExpressionAttributeValues: c.values}
		case store.OpCheck:
			expr := c.expr
			if expr == nil {
				// A check needs an expression; an unconditional check always holds.
				expr = aws.String("attribute_exists(PK) OR attribute_not_exists(PK)")
			}
			items[i].ConditionCheck = &types.ConditionCheck{TableName: aws.String(t.name), Key: key(w.Item.PK, w.Item.SK),
				ConditionExpression: expr, ExpressionAttributeNames: c.names, ExpressionAttributeValues: c.values}
		}
	}
	_, err := t.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	if err == nil {
		return nil
	}
	var canceled *types.TransactionCanceledException
	if errors.As(err, &canceled) {
		for i, r := range canceled.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" && i < len(writes) {
				return &store.TxConditionError{Index: i, Key: writes[i].Item.Key()}
			}
		}
	}
	return fmt.Errorf("transaction of %d writes: %w", len(writes), err)
}
