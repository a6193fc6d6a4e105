module petstore-independent

go 1.19
